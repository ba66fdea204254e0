"""The table planner's question vocabulary: words of a column name, question words and what they ask for
(who, when, where, how long, which rank), synonyms of column names, ordinals read as places, and words
that point at documents rather than a table.  Sports words are merged in from core.lexicon.trivia."""

from __future__ import annotations

from core.lexicon.trivia import SPORTS_ROLES, SPORTS_SYNONYMS

# Words that say an ordinal is a cell value ("placed first", "in third place"), not the row order.
PLACE_BEFORE = frozenset("placed finished came ranked ranking rank took position place finish at in".split())
PLACE_AFTER = frozenset("place position spot overall finish ranked".split())
# Words of a column name that say little about it on their own.
WEAK_COLUMN_WORDS = frozenset("no number of the a total name s".split())

# Question words -> column-name words they may refer to (both sides stemmed); the sports words are trivia's.
GENERAL_SYNONYMS: dict[str, tuple[str, ...]] = {
    "raise": ("amount", "raised", "funding", "total", "usd", "value"),
    "raised": ("amount", "raised", "funding", "total", "usd", "value"),
    "amount": ("amount", "raised", "funding", "value", "usd"),
    "funding": ("amount", "raised", "funding", "usd"),
    "money": ("amount", "raised", "funding", "usd", "value", "revenue", "price"),
    "size": ("size", "amount", "value"),
    "invest": ("amount", "raised", "funding", "investment"),
    "year": ("year", "season", "date"),
    "date": ("date", "year", "day"),
    "season": ("season", "year"),
    "country": ("country", "nation", "nationality"),
    "nation": ("nation", "country", "nationality", "noc"),
    "nationality": ("nationality", "country", "nation"),
    "place": ("place", "position", "pos", "rank", "finish", "result"),
    "position": ("position", "pos", "place", "rank"),
    "rank": ("rank", "ranking", "position", "pos", "place"),
    "film": ("film", "title", "movie"),
    "movie": ("movie", "title", "film"),
    "song": ("song", "title", "single", "track"),
    "album": ("album", "title", "record"),
    "show": ("show", "title", "program", "programme", "series"),
    "people": ("population", "people", "inhabitant"),
    "resident": ("population", "resident", "inhabitant"),
    "populat": ("population",),
    "tall": ("height",),
    "high": ("height", "elevation", "altitude"),
    "height": ("height", "elevation", "altitude"),
    "born": ("born", "birth", "dob"),
    "age": ("age",),
    "vote": ("vote",),
    "city": ("city", "town", "location", "venue"),
    "location": ("location", "venue", "city", "place", "site"),
    "venue": ("venue", "location", "stadium", "ground", "city"),
    "title": ("title", "name"),
    "episode": ("episode", "ep"),
    "player": ("player", "name"),
    "company": ("company", "name"),
    "investor": ("investor", "lead"),
    "sector": ("sector", "industry"),
    "industry": ("industry", "sector"),
    "length": ("length", "duration", "time"),
    "time": ("time", "duration"),
    "weight": ("weight", "lb", "kg"),
    "capacity": ("capacity",),
    "area": ("area",),
    "elected": ("elected", "first", "year"),
    "term": ("term", "tenure"),
    "km": ("km", "distance", "length"),
    "distance": ("distance", "length", "km"),
    "director": ("director", "directed"),
    "directed": ("director", "directed"),
    "written": ("writer", "written"),
    "network": ("network", "channel", "broadcaster"),
    "channel": ("channel", "network", "broadcaster"),
    "label": ("label",),
    "manager": ("manager", "coach", "owner"),
    # Column roles analysts' sheets name in their own words: who owns an account, when a row started.
    "rep": ("rep", "owner", "manager", "salesperson"),
    "own": ("owner",),
    "manage": ("manager", "owner"),
    "start": ("start", "started", "joined", "since"),
    "join": ("joined", "start", "started", "since"),
    "quantity": ("quantity", "qty", "units", "unit", "count"),
    "builder": ("builder", "built", "manufacturer"),
    "party": ("party",),
    "district": ("district",),
    "state": ("state",),
    "county": ("county",),
    "round": ("round", "rd"),
}
SYNONYMS: dict[str, tuple[str, ...]] = GENERAL_SYNONYMS | SPORTS_SYNONYMS
# Who is asked: the column naming people or things that act (the sports roles are trivia's).
WHO_WORDS = SPORTS_ROLES | frozenset(
    """name artist person candidate member company incumbent representative holder director author composer
    singer performer nominee recipient actor actress manager owner builder leader president governor mayor
    senator minister chairman investor lead writer producer host presenter character role""".split()
)
WHEN_WORDS = (
    "date",
    "year",
    "season",
    "time",
    "day",
    "month",
    "period",
    "released",
    "founded",
    "built",
    "opened",
    "born",
)
WHERE_WORDS = frozenset(
    "venue location city place site stadium ground town state region host country nation address county".split()
)
HOW_LONG_WORDS = ("duration", "length", "time", "term", "tenure", "years", "days", "runtime")
RANK_WORDS = frozenset("rank ranking pos position place no finish seed standing".split())

# Words of sums and counts; core.qa.planner.lexicon adds the words of every aggregate the table registry holds.
SUM_COUNT_WORDS = frozenset("sum total count number".split())
TOTAL_WORDS = frozenset("total overall combined altogether cumulative cumulatively sum together all-time".split())
# Words that point at prose documents rather than a table.
DOCUMENT_WORDS = frozenset(
    """memo memos report reports document documents pdf pdfs page pages says say mention mentions mentioned
    describe described explain explains why risk risks ceo cfo cto founder founders strategy plan plans
    outlook guidance commentary policy policies summary summarise summarize according""".split()
)
# Words that name a sheet of a workbook, or what analysts keep one sheet each of (a site, a store, a region).
SHEET_WORDS = frozenset(
    """sheet sheets tab tabs worksheet worksheets site sites location locations branch branches store stores
    warehouse warehouses""".split()
)
# Words before a sheet word that say which sheets, not a sheet's name ("both sites", "each tab", "the same sheet").
SHEET_QUANTIFIERS = frozenset(
    """across all both each every other same this that these those first second third last one two three
    several different individual separate""".split()
)
# The cells of a yes/no column ("Renewed", "Churned", "Active"): the column's own word asks for its yes rows.
YES_CELLS = frozenset("yes y true t x ✓ ✔".split())
NO_CELLS = frozenset("no n false f".split())
# Words that turn a yes/no column's word into its no rows ("did not renew", "never churned", "non-renewed").
NEGATIONS = frozenset("not never no non without didn doesn don isn wasn weren hasn haven un".split())

# A row's value as the product of two of its columns ("the stock value of X", "what is X worth"): the words asking
# it, the quantity column's words and the price-per-unit column's names.
VALUE_WORDS = frozenset("value worth".split())
QUANTITY_COLUMNS = ("units", "quantity", "qty", "units on hand", "on hand", "stock on hand", "stock", "count")
UNIT_PRICE_COLUMNS = ("unit cost", "unit price", "cost per unit", "price per unit", "price", "cost")

# The auxiliaries a yes/no question opens with ("Did net sales rise?", "Is the current ratio above 1?").
YES_NO_OPENERS = ("did", "does", "do", "has", "have", "had", "was", "were", "is", "are")
