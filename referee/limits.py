"""Limits on untrusted input that hold whatever the ruleset says.

Organisers run the referee on files mailed in by strangers (issue 17,
``docs/security.md``).  A ruleset is itself such a file, so the bounds that
keep a round finite -- in time and in memory -- cannot come from it: they are
constants here, in one place, each with the reason for its size.  Every one of
them is far above what an honest file needs (a character sheet is ~1 KB, a
plan a few dozen lines, the built-in ruleset has a 100-turn cap) and far below
what would hurt a 2-core organiser's laptop.

A file or value over a limit is refused with a located diagnostic naming the
limit (``file-too-large``, ``yaml-too-complex``, ``plan-too-long``,
``turn-limit-too-high``, ``map-too-small``, ``number-too-large``); a battle
over the time limit in ``referee batch`` is listed as ``timed-out``.
"""

from __future__ import annotations

#: Largest sheet, plan, battle, ruleset or skill catalogue read, in bytes.
#: Why: a sheet is about 1 KB and the built-in skill catalogue about 7 KB; a
#: 100 MB sheet took 43 s and 632 MB before this limit (issue 17, point 10).
MAX_INPUT_BYTES = 1024 * 1024

#: Largest JSON report ``referee replay`` reads, in bytes.  Why: a report of a
#: battle at the turn-cap ceiling with 16 characters a side stays well under
#: this; anything larger is not a report the referee wrote.
MAX_REPORT_BYTES = 64 * 1024 * 1024

#: Most YAML aliases (``*name``) in one file.  Why: aliases let a 546-byte
#: sheet expand into 1.45 GB (a "billion laughs"); honest files use none.
MAX_YAML_ALIASES = 100

#: Most YAML nodes in a file once every alias is expanded.  Why: a bound on
#: the aliases alone still allows exponential expansion through nesting; the
#: built-in skill catalogue has about 750 nodes.
MAX_YAML_NODES = 100_000

#: Deepest nesting of YAML mappings and lists.  Why: the deepest shipped file
#: nests 7 levels; deeper documents only exhaust the recursion of the loader.
MAX_YAML_DEPTH = 32

#: Most digits in a whole number in any input file.  Why: Python refuses to
#: print integers of more than 4,300 digits (a traceback where a diagnostic
#: belongs); no field of any file needs more than a few digits, and a seed
#: fits in 40.
MAX_NUMBER_DIGITS = 40

#: Most characters of a seed given as text (``seed: round-3``).
MAX_SEED_CHARS = 200

#: Longest plan, in lines (comments and blank lines included).  Why: a plan
#: has at most 2 x intellect clauses (R-CHAR-4); blank lines cost the parser
#: about 1.2 GB of memory per MB before this limit (issue 17, point 8).
MAX_PLAN_LINES = 500

#: Longest plan line, in characters.  Why: a clause is one line of a few dozen
#: characters; a 40 KB line took 30 s to diagnose (issue 17, point 6).
MAX_PLAN_LINE_CHARS = 500

#: Most characters of a name or a title.
MAX_NAME_CHARS = 100

#: Highest turn cap a ruleset may set (R-TURN-9).  Why: the built-in cap is
#: 100; a house ruleset with no ceiling made ``resolve`` run forever (issue 17,
#: point 4).  A 16-a-side battle of 1,000 turns resolves in seconds.
MAX_TURN_LIMIT = 1000

#: Smallest side of a ruleset's map.  Why: the narrowing (R-NARROW-1) and the
#: setup draw (R-SETUP-1) need room; a map 1 or 2 squares high crashed the
#: setup (issue 17, point 12).
MIN_MAP_SIDE = 3

#: Default time one battle may take in ``referee batch``, in seconds
#: (``--time-limit`` changes it).  Why: a battle takes milliseconds; a FIFO as
#: a plan file hung a worker and the round never wrote its standings.
BATTLE_TIME_LIMIT_SECONDS = 60.0

#: Longest path written in any input file, in characters (a path longer than
#: the system allows is refused before it reaches the file system).
MAX_PATH_CHARS = 1024

# --- mail and the round's inbox (``referee intake``, docs/intake.md) ---

#: Largest mail message read, in bytes (headers and every part, as received).
#: Why: a sheet and a plan are a few KB; even base64-encoded with a signature
#: and an HTML copy an honest submission is far below this, and a message is
#: read whole into memory.
MAX_MESSAGE_BYTES = 4 * 1024 * 1024

#: Largest decoded attachment or fenced file, in bytes: the same bound as any
#: input file, since it becomes one.
MAX_ATTACHMENT_BYTES = MAX_INPUT_BYTES

#: Deepest nesting of MIME multiparts.  Why: mail clients nest three levels
#: (mixed > alternative > related); deeper nesting only costs recursion.
MAX_MIME_DEPTH = 8

#: Most MIME parts in one message.  Why: a sheet, a plan, a body and its HTML
#: copy are four; a message of 10,000 empty parts costs parsing time for nothing.
MAX_MIME_PARTS = 50

#: Most files taken from one message.  Why: a player owns a sheet or two and
#: their plans; each file taken is checked against every battle using it.
MAX_FILES_PER_MESSAGE = 8

#: Longest header (name and value, unfolded), in characters.  Why: RFC 5322
#: asks for lines under 998 characters; a folded Subject or References of
#: megabytes only slows the parser.
MAX_HEADER_CHARS = 8192

#: Most headers in one message.  Why: trace headers of a long relay chain are
#: a few dozen; thousands are an attack on the parser.
MAX_HEADERS = 500

#: Longest mail address, in characters (RFC 5321's path limit).
MAX_ADDRESS_CHARS = 254

#: Most players in one roster.  Why: a round of 512 players is far beyond any
#: play-by-post tournament; the roster is read at every message.
MAX_ROSTER_PLAYERS = 512

#: Least time between two "not accepted" replies to the same player, in
#: seconds.  Why: such a reply goes to the player's registered address, so
#: a stranger forging their address must not be able to flood them.
REFUSAL_REPLY_INTERVAL_SECONDS = 3600.0

#: Most messages one IMAP poll fetches.  Why: a mailbox flooded with
#: thousands of messages is worked through in bounded steps, each one filed
#: before the next is fetched.
MAX_IMAP_BATCH = 200

# --- the round's web page (``referee serve``, docs/intake.md) ---

#: Largest request body the page reads, in bytes: a form with a player's
#: files is one submission, bounded as a mail message is.  Over it the
#: request is refused before any of it is parsed.
MAX_WEB_REQUEST_BYTES = MAX_MESSAGE_BYTES

#: Most fields and uploads in one form.  Why: the player's page has a text
#: area and an upload per file (at most :data:`MAX_FILES_PER_MESSAGE` are
#: taken) and a few buttons; thousands of fields only cost parsing.
MAX_WEB_FORM_FIELDS = 4 * MAX_FILES_PER_MESSAGE + 16

#: Failed sign-ins allowed from one address, and against one player id or
#: the organiser's key, within :data:`WEB_SIGN_IN_WINDOW_SECONDS`; after
#: that every attempt is refused unchecked until the window has passed.
#: Why: a token is 96 random bits, so guessing is hopeless anyway; the limit
#: keeps a flood of guesses from costing a scrypt check each (about 16 MB
#: and tens of milliseconds).
WEB_SIGN_IN_FAILURES_PER_ADDRESS = 10
WEB_SIGN_IN_FAILURES_PER_ACCOUNT = 20
WEB_SIGN_IN_WINDOW_SECONDS = 900.0

#: Most sign-in checks (scrypt) the server makes per minute, from everyone.
WEB_SIGN_IN_CHECKS_PER_MINUTE = 120

#: How long a sign-in lasts without use, in seconds (a deadline evening).
WEB_SESSION_SECONDS = 12 * 3600

#: Most signed-in sessions kept; the oldest is forgotten first.  Why: each
#: is kept in the server's memory.
MAX_WEB_SESSIONS = 4096

__all__ = [
    "MAX_INPUT_BYTES",
    "MAX_REPORT_BYTES",
    "MAX_YAML_ALIASES",
    "MAX_YAML_NODES",
    "MAX_YAML_DEPTH",
    "MAX_NUMBER_DIGITS",
    "MAX_SEED_CHARS",
    "MAX_PLAN_LINES",
    "MAX_PLAN_LINE_CHARS",
    "MAX_NAME_CHARS",
    "MAX_TURN_LIMIT",
    "MIN_MAP_SIDE",
    "BATTLE_TIME_LIMIT_SECONDS",
    "MAX_PATH_CHARS",
    "MAX_MESSAGE_BYTES",
    "MAX_ATTACHMENT_BYTES",
    "MAX_MIME_DEPTH",
    "MAX_MIME_PARTS",
    "MAX_FILES_PER_MESSAGE",
    "MAX_HEADER_CHARS",
    "MAX_HEADERS",
    "MAX_ADDRESS_CHARS",
    "MAX_ROSTER_PLAYERS",
    "REFUSAL_REPLY_INTERVAL_SECONDS",
    "MAX_IMAP_BATCH",
    "MAX_WEB_REQUEST_BYTES",
    "MAX_WEB_FORM_FIELDS",
    "WEB_SIGN_IN_FAILURES_PER_ADDRESS",
    "WEB_SIGN_IN_FAILURES_PER_ACCOUNT",
    "WEB_SIGN_IN_WINDOW_SECONDS",
    "WEB_SIGN_IN_CHECKS_PER_MINUTE",
    "WEB_SESSION_SECONDS",
    "MAX_WEB_SESSIONS",
]
