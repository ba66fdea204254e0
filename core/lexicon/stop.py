"""Stop words: the words of a question that name nothing (articles, auxiliaries, question words).

Each reader adds the words that are glue for its own job to the common set here (the planner: "total",
"average"; the cell arithmetic: "fiscal", "year"); those additions are derived from STOP_WORDS, not re-listed.
"""

from __future__ import annotations

STOP_WORDS = frozenset(
    """a an and are as at be by did do does for from had has have how i in is it its of on or that the their
    there this to was were what when where which who whose why with""".split()
)

# The table planner's question glue: never evidence that a column or a value is meant.
QUESTION_GLUE = STOP_WORDS | frozenset(
    """about after all also amount any average been before being between but count done down during each
    every first get give got he her his if into just last least less list made make many me mean more
    most much next no not number one ones only other our out over per please previous same she show
    since so sum tell than them then these they those total under until up we whom yes you your""".split()
)

# Words a question may capitalise that name nothing (besides STOP_WORDS): modal verbs, sentence openers and
# the instructions of a question ("Calculate ...", "Please list ...").
SENTENCE_OPENERS = frozenset(
    """can could if whom will would you your among answer assume base based calculate compare consider describe
    explain give given list name please provide roughly state tell using according also between both each
    during further here however overall total yes no not""".split()
)

# Words a question about a sheet may hold that name nothing the sheet could hold: verbs of having and showing,
# generic nouns of a figure and of time ("value", "figure", "month"), and politeness. A reading that accounts for
# every word (core.qa.planner.binding) binds each other content word to a sheet, a column, a value, a period, a
# line or an operation, or lists it as unread.
CARRY_NOTHING = QUESTION_GLUE | frozenset(
    """across actual actually amount amounts answer are been book books came cell cells chart charts come data did does entry
    entries figure figures file files go going got held hold holds holding issue issued kept keep list listed look
    many month monthly months much period periods quarter quarterly quarters receive received receiving record
    recorded report reported row rows sheet sheets show shown spend spent spending stand stood table tab tabs the
    value values was were what whole year years yearly""".split()
)

# The small words a line's name may hold inside it ("cost of sales", "provision for credit losses", "research and
# development"): kept in a question's topic between two words of the name.
NAME_GLUE = STOP_WORDS & frozenset("of for and from to in or".split())
