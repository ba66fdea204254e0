"""Vocabulary only tables of sports and general knowledge need: sports roles and words, game outcomes,
nationalities with the IOC/FIFA codes tables write them in.  An analyst's data room rarely needs these; they
are kept apart so the finance and question vocabulary stays readable, and merged into the planner's lists
by union (core.lexicon.questions)."""

from __future__ import annotations

# The people of a sports table the question may ask "who" about.
SPORTS_ROLES = frozenset(
    """player athlete driver rider winner team champion coach pilot wrestler skater swimmer cyclist runner boxer
    jockey constructor captain skip club competitor contestant pitcher opponent""".split()
)

# Sports question words -> column-name words they may refer to (both sides stemmed).
SPORTS_SYNONYMS: dict[str, tuple[str, ...]] = {
    "team": ("team", "club", "squad"),
    "club": ("club", "team"),
    "score": ("score", "result", "point"),
    "lose": ("lost", "loss", "l"),
    "opponent": ("opponent", "opposition", "against", "vs"),
    "game": ("game", "match"),
    "match": ("match", "game"),
    "goal": ("goal", "gls"),
    "point": ("point", "pts", "score"),
    "win": ("win", "won", "w", "winner"),
    "won": ("winner", "win", "won", "w", "champion"),
    "winner": ("winner", "champion", "won"),
    "loss": ("loss", "lost", "l"),
    "lost": ("loss", "lost", "l", "runner"),
    "medal": ("total", "medal"),
    "gold": ("gold",),
    "silver": ("silver",),
    "bronze": ("bronze",),
    "coach": ("coach", "manager"),
}

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
