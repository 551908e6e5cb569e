"""A round's inbox: rosters, submissions, receipts and the ledger (docs/intake.md).

The transport-neutral core is :mod:`referee.intake.core` (:func:`submit`);
mail carries submissions to it (:mod:`referee.intake.mail`,
:mod:`referee.intake.transport`), and :mod:`referee.intake.render` puts its
receipts into words.
"""
