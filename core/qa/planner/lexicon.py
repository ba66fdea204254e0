"""The offline planner's word tables, as data: stop words, synonyms, question and comparison words, number
words and scales, superlatives, nationalities; and the folding and stemming every comparison uses."""

from __future__ import annotations

import re
import unicodedata

from core.retrieval.tables.aggregates import AGGREGATES
from core.text import NUMBER_WORDS, STOP_WORDS

# ---------------------------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------------------------

QUOTES = str.maketrans({"‘": "'", "’": "'", "´": "'", "`": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
TOKEN_RE = re.compile(r"(?<![a-z0-9])\.[0-9]+|[a-z0-9]+(?:\.[0-9]+)?")
NUMBER_RE = re.compile(r"\d+(?:\.\d+)?|\.\d+")
YEAR_RE = re.compile(r"1[5-9]\d\d|20\d\d")
ORDINAL_SUFFIX_RE = re.compile(r"(?<=\d)(?:st|nd|rd|th)$")
CLOCK_RE = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?")

SCALES = {"thousand": 1e3, "million": 1e6, "mn": 1e6, "mm": 1e6, "billion": 1e9, "bn": 1e9}
# "$5m", "£1.2bn", "$450k": a money amount's short scale (a bare "80 m" stays metres).
MONEY_SCALE_RE = re.compile(r"[$£€¥]\s?(\d+(?:\.\d+)?)\s?(k|m|mm|mn|bn|b)\b")
MONEY_SCALE_WORDS = {
    "k": "thousand",
    "m": "million",
    "mm": "million",
    "mn": "million",
    "b": "billion",
    "bn": "billion",
}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
# Words that say an ordinal is a cell value ("placed first", "in third place"), not the row order.
PLACE_BEFORE = frozenset("placed finished came ranked ranking rank took position place finish at in".split())
PLACE_AFTER = frozenset("place position spot overall finish ranked".split())

# Question glue: never evidence that a column or a value is meant.
STOP = STOP_WORDS | frozenset(
    """about after all also amount any average been before being between but count done down during each
    every first get give got he her his if into just last least less list made make many me mean more
    most much next no not number one ones only other our out over per please previous same she show
    since so sum tell than them then these they those total under until up we whom yes you your""".split()
)
# Words of a column name that say little about it on their own.
WEAK_COLUMN_WORDS = frozenset("no number of the a total name s".split())

# Question words -> column-name words they may refer to (both sides stemmed).
SYNONYMS: dict[str, tuple[str, ...]] = {
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
    "team": ("team", "club", "squad"),
    "club": ("club", "team"),
    "place": ("place", "position", "pos", "rank", "finish", "result"),
    "position": ("position", "pos", "place", "rank"),
    "rank": ("rank", "ranking", "position", "pos", "place"),
    "score": ("score", "result", "point"),
    "lose": ("lost", "loss", "l"),
    "opponent": ("opponent", "opposition", "against", "vs"),
    "film": ("film", "title", "movie"),
    "movie": ("movie", "title", "film"),
    "song": ("song", "title", "single", "track"),
    "album": ("album", "title", "record"),
    "show": ("show", "title", "program", "programme", "series"),
    "game": ("game", "match"),
    "match": ("match", "game"),
    "people": ("population", "people", "inhabitant"),
    "resident": ("population", "resident", "inhabitant"),
    "populat": ("population",),
    "tall": ("height",),
    "high": ("height", "elevation", "altitude"),
    "height": ("height", "elevation", "altitude"),
    "born": ("born", "birth", "dob"),
    "age": ("age",),
    "goal": ("goal", "gls"),
    "point": ("point", "pts", "score"),
    "win": ("win", "won", "w", "winner"),
    "won": ("winner", "win", "won", "w", "champion"),
    "winner": ("winner", "champion", "won"),
    "loss": ("loss", "lost", "l"),
    "lost": ("loss", "lost", "l", "runner"),
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
    "medal": ("total", "medal"),
    "gold": ("gold",),
    "silver": ("silver",),
    "bronze": ("bronze",),
    "director": ("director", "directed"),
    "directed": ("director", "directed"),
    "written": ("writer", "written"),
    "network": ("network", "channel", "broadcaster"),
    "channel": ("channel", "network", "broadcaster"),
    "label": ("label",),
    "coach": ("coach", "manager"),
    "manager": ("manager", "coach"),
    "builder": ("builder", "built", "manufacturer"),
    "party": ("party",),
    "district": ("district",),
    "state": ("state",),
    "county": ("county",),
    "round": ("round", "rd"),
}
# Who is asked: the column naming people or things that act.
WHO_WORDS = frozenset(
    """name player athlete driver rider winner artist person candidate member company team incumbent
    representative holder champion coach director author composer singer performer nominee recipient actor
    actress manager pilot wrestler skater swimmer cyclist runner boxer jockey owner builder constructor
    leader president governor mayor senator minister chairman captain skip investor lead club competitor
    contestant writer producer host presenter character role pitcher opponent """.split()
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

# Superlatives: (descending?, column-name words the adjective implies).  Direction is for a
# quantity ("tallest": the most height); a rank column turns "highest" into rank 1 (see _sort_dir).
SUPERLATIVES: dict[str, tuple[bool, tuple[str, ...]]] = {
    "most": (True, ()), "highest": (True, ()), "largest": (True, ("area", "size", "population", "capacity")),
    "biggest": (True, ("size", "area", "capacity", "population")), "greatest": (True, ()),
    "maximum": (True, ()), "max": (True, ()), "top": (True, ()), "best": (True, ()), "more": (True, ()),
    "tallest": (True, ("height", "elevation", "altitude")), "longest": (True, ("length", "duration", "distance", "time", "km")),
    "heaviest": (True, ("weight",)), "deepest": (True, ("depth",)), "widest": (True, ("width",)),
    "fastest": (False, ("time",)), "slowest": (True, ("time",)), "latest": (True, ("date", "year", "season")),
    "newest": (True, ("date", "year", "season", "built", "opened")), "recent": (True, ("date", "year", "season")),
    "oldest": (False, ("date", "year", "born", "birth", "built", "founded", "established", "opened")),
    "earliest": (False, ("date", "year", "season")), "least": (False, ()), "lowest": (False, ()),
    "smallest": (False, ("area", "size", "population", "capacity")), "fewest": (False, ()), "minimum": (False, ()),
    "min": (False, ()), "shortest": (False, ("length", "duration", "distance", "time", "height")),
    "worst": (False, ()), "less": (False, ()), "fewer": (False, ()), "youngest": (True, ("born", "birth", "date", "year")),
    "lightest": (False, ("weight",)), "busiest": (True, ("passenger", "traffic")),
    "populous": (True, ("population",)), "richest": (True, ("wealth", "worth", "gdp")),
}  # fmt: skip

# "More or less", "older or younger": the comparative words a two-way question offers, each read as the superlative
# that orders a column the same way ("older" as "oldest": the earlier date, or the greater age).
COMPARATIVE_AS = {
    "more": "most", "less": "least", "fewer": "fewest", "higher": "highest", "lower": "lowest", "greater": "greatest",
    "larger": "largest", "bigger": "biggest", "smaller": "smallest", "longer": "longest", "shorter": "shortest",
    "taller": "tallest", "heavier": "heaviest", "lighter": "lightest", "older": "oldest", "younger": "youngest",
    "earlier": "earliest", "later": "latest", "faster": "fastest", "slower": "slowest", "better": "best",
    "worse": "worst",
}  # fmt: skip
# Comparatives of place in a list or in time ("listed above or below", "before or after"): the second is greater.
ORDER_PAIRS = {("above", "below"), ("before", "after"), ("earlier", "later")}

# Outcomes of a game as a question says them, and as result cells start ("W 31–17", "Winner", "L", "Runner-up").
OUTCOME_WORDS = {
    "win": "win", "wins": "win", "won": "win", "winning": "win", "victory": "win", "victories": "win",
    "loss": "loss", "losses": "loss", "lost": "loss", "lose": "loss", "losing": "loss", "defeat": "loss",
    "defeats": "loss", "draw": "draw", "draws": "draw", "drawn": "draw", "tie": "draw", "ties": "draw", "tied": "draw",
}  # fmt: skip
OUTCOME_CELLS = {
    "w": "win", "win": "win", "won": "win", "winner": "win", "victory": "win", "l": "loss", "loss": "loss",
    "lost": "loss", "runner": "loss", "defeat": "loss", "d": "draw", "draw": "draw", "t": "draw", "tie": "draw",
    "drawn": "draw",
}  # fmt: skip

COMPARATORS: list[tuple[tuple[str, ...], str]] = sorted(
    [
        (("more", "than"), "gt"), (("greater", "than"), "gt"), (("over",), "gt"), (("above",), "gt"),
        (("higher", "than"), "gt"), (("larger", "than"), "gt"), (("bigger", "than"), "gt"),
        (("exceeding",), "gt"), (("exceeded",), "gt"), (("longer", "than"), "gt"), (("taller", "than"), "gt"),
        (("later", "than"), "gt"), (("after",), "gt"), (("in", "excess", "of"), "gt"), (("beyond",), "gt"),
        (("at", "least"), "ge"), (("no", "less", "than"), "ge"), (("not", "less", "than"), "ge"),
        (("no", "fewer", "than"), "ge"), (("minimum", "of"), "ge"), (("since",), "ge"),
        (("less", "than"), "lt"), (("fewer", "than"), "lt"), (("under",), "lt"), (("below",), "lt"),
        (("lower", "than"), "lt"), (("smaller", "than"), "lt"), (("shorter", "than"), "lt"),
        (("earlier", "than"), "lt"), (("before",), "lt"), (("prior", "to"), "lt"),
        (("at", "most"), "le"), (("no", "more", "than"), "le"), (("not", "more", "than"), "le"),
        (("maximum", "of"), "le"), (("up", "to"), "le"), (("no", "later", "than"), "le"),
        (("no", "higher", "than"), "le"), (("or", "less"), "le"), (("no", "earlier", "than"), "ge"),
    ],
    key=lambda c: -len(c[0]),
)  # fmt: skip
POST_COMPARATORS = {("or", "more"): "ge", ("or", "greater"): "ge", ("or", "higher"): "ge", ("or", "above"): "ge",
                     ("or", "less"): "le", ("or", "fewer"): "le", ("or", "lower"): "le", ("or", "below"): "le",
                     ("plus",): "ge", ("or", "later"): "ge", ("or", "earlier"): "le"}  # fmt: skip

# Words naming an aggregate: those of sums and counts, and the words each aggregate's registry entry is asked by.
AGGREGATE_WORDS = frozenset("sum total count number".split()) | {w for a in AGGREGATES.values() for w in a.words}
TOTAL_WORDS = frozenset("total overall combined altogether cumulative cumulatively sum together all-time".split())
# Words that point at prose documents rather than a table.
DOCUMENT_WORDS = frozenset(
    """memo memos report reports document documents pdf pdfs page pages says say mention mentions mentioned
    describe described explain explains why risk risks ceo cfo cto founder founders strategy plan plans
    outlook guidance commentary policy policies summary summarise summarize according""".split()
)


# Peoples' names -> how their country is written in tables (name, then IOC/FIFA code).
DEMONYMS: dict[str, tuple[str, ...]] = {
    "american": ("United States", "USA"), "americans": ("United States", "USA"), "canadian": ("Canada", "CAN"),
    "canadians": ("Canada", "CAN"), "british": ("United Kingdom", "Great Britain", "GBR"),
    "english": ("England", "ENG"), "scottish": ("Scotland", "SCO"), "welsh": ("Wales", "WAL"),
    "irish": ("Ireland", "IRL"), "french": ("France", "FRA"), "german": ("Germany", "GER"),
    "germans": ("Germany", "GER"), "italian": ("Italy", "ITA"), "italians": ("Italy", "ITA"),
    "spanish": ("Spain", "ESP"), "portuguese": ("Portugal", "POR"), "dutch": ("Netherlands", "NED"),
    "belgian": ("Belgium", "BEL"), "swiss": ("Switzerland", "SUI"), "austrian": ("Austria", "AUT"),
    "swedish": ("Sweden", "SWE"), "swede": ("Sweden", "SWE"), "swedes": ("Sweden", "SWE"),
    "norwegian": ("Norway", "NOR"), "norwegians": ("Norway", "NOR"), "danish": ("Denmark", "DEN"),
    "finnish": ("Finland", "FIN"), "polish": ("Poland", "POL"), "czech": ("Czech Republic", "CZE"),
    "hungarian": ("Hungary", "HUN"), "russian": ("Russia", "RUS"), "russians": ("Russia", "RUS"),
    "ukrainian": ("Ukraine", "UKR"), "greek": ("Greece", "GRE"), "turkish": ("Turkey", "TUR"),
    "japanese": ("Japan", "JPN"), "chinese": ("China", "CHN"), "korean": ("South Korea", "KOR"),
    "indian": ("India", "IND"), "australian": ("Australia", "AUS"), "australians": ("Australia", "AUS"),
    "brazilian": ("Brazil", "BRA"), "brazilians": ("Brazil", "BRA"), "argentine": ("Argentina", "ARG"),
    "argentinian": ("Argentina", "ARG"), "mexican": ("Mexico", "MEX"), "mexicans": ("Mexico", "MEX"),
    "cuban": ("Cuba", "CUB"), "kenyan": ("Kenya", "KEN"), "kenyans": ("Kenya", "KEN"),
    "ethiopian": ("Ethiopia", "ETH"), "nigerian": ("Nigeria", "NGR"), "egyptian": ("Egypt", "EGY"),
    "jamaican": ("Jamaica", "JAM"), "romanian": ("Romania", "ROU"), "bulgarian": ("Bulgaria", "BUL"),
    "croatian": ("Croatia", "CRO"), "serbian": ("Serbia", "SRB"), "slovak": ("Slovakia", "SVK"),
    "slovenian": ("Slovenia", "SLO"), "estonian": ("Estonia", "EST"), "latvian": ("Latvia", "LAT"),
    "lithuanian": ("Lithuania", "LTU"), "belarusian": ("Belarus", "BLR"), "israeli": ("Israel", "ISR"),
    "iranian": ("Iran", "IRI"), "colombian": ("Colombia", "COL"),
    "chilean": ("Chile", "CHI"), "peruvian": ("Peru", "PER"), "venezuelan": ("Venezuela", "VEN"),
    "filipino": ("Philippines", "PHI"), "thai": ("Thailand", "THA"),
    "vietnamese": ("Vietnam", "VIE"), "indonesian": ("Indonesia", "INA"), "malaysian": ("Malaysia", "MAS"),
    "pakistani": ("Pakistan", "PAK"), "moroccan": ("Morocco", "MAR"), "algerian": ("Algeria", "ALG"),
    "icelandic": ("Iceland", "ISL"), "ghanaian": ("Ghana", "GHA"), "ugandan": ("Uganda", "UGA"),
}  # fmt: skip


def fold(text: str) -> str:
    """Lower-case, accents and typographic quotes removed: the form every comparison uses."""
    text = unicodedata.normalize("NFKD", text.translate(QUOTES))
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"\b(\d{3}0)'s\b", r"\1s", text.lower())  # "the 1990's" is a decade, not a possessive
    text = re.sub(r"'s\b", "", text)
    # "10,000" is one number; "$1.2m" reads as "1.2 million".
    text = MONEY_SCALE_RE.sub(lambda m: f"{m.group(1)} {MONEY_SCALE_WORDS[m.group(2)]}", text)
    return re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)


def words_of(text: str) -> list[str]:
    """Words and numbers of a text, folded ("8th" reads as "8")."""
    return [ORDINAL_SUFFIX_RE.sub("", t) for t in TOKEN_RE.findall(fold(text))]


def stem_of(word: str) -> str:
    """A crude plural/verb stem so "rounds" meets "Round" and "countries" meets "Country"."""
    if len(word) <= 3 or word[0].isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def as_number(word: str) -> float | None:
    if NUMBER_RE.fullmatch(word):
        return float(word)
    found = NUMBER_WORDS.get(word)
    return None if found is None else float(found)


def num_text(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)
