"""The round's web page (``referee serve``, docs/intake.md): a player's page
and the organiser's, on the intake core.

The page only carries: a form becomes a
:class:`~referee.intake.core.Submission` for
:func:`~referee.intake.core.submit` (or
:func:`~referee.intake.core.check_submission`), and the
:class:`~referee.intake.receipt.Receipt` comes back as a page.  The
organiser's buttons call what ``referee remind``, ``lock`` and ``batch``
call.  :mod:`referee.web.guard` holds what a public page needs (sessions,
CSRF tokens, sign-in limits, size limits, headers), :mod:`referee.web.views`
turns receipts and the ledger into what the templates show, and
:mod:`referee.web.app` wires them into a Starlette application.
"""
