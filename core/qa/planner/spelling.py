"""A question's words put in the sheet's own words by spelling: the same word written another way is the same word.

The class served, on any sheet: a question rarely uses the sheet's exact spelling of the words it shares with it —
an inflection ("actually" of an "Actual" column, "budgeted" of "Budget"), a typo ("revnue"), an abbreviation made
of a label's initials ("RPMs" of "Revenue passenger miles"), or a short capitalised name that is also a common word
("IT" of a cost centre named "IT", which a stop-word list drops). Each question word the sheet does not hold is
replaced by the one word of the sheet it is spelled like; a word like two of the sheet's is left as asked (which is
meant is not known). Nothing here knows any file's wording: the sheet's words are the vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher

from core.retrieval.cellmath import STOP, word_list

# The endings an inflection adds to a word's stem ("actual" → "actually", "budget" → "budgeted").
_ENDINGS = ("s", "es", "ly", "ally", "ed", "d", "ing", "al", "ation", "er", "ers")
# The endings two forms of one stem differ by ("produc-tion", "produc-ed"), with a stem this long at least.
_FORMS = frozenset(
    {"", "e", "ed", "es", "s", "ing", "ion", "ions", "tion", "tions", "ation", "er", "ers", "ly", "al", "a", "n", "an",
     "ian"}  # "Australia", "Australian"; "Canada", "Canadian"
)  # fmt: skip
_STEM = 5
_TYPO_LENGTH = 6  # a typo is read in words this long or longer (short words differ by one letter and mean otherwise)
_TYPO_RATIO = 0.88
# A capitalised short name in the question: "IT", "HR", "R&D" — the sheet's own name, even when it is a common word.
_CAPS = re.compile(r"(?<![\w&])([A-Z][A-Z&]{1,5})(?![\w&])")


def spelled_like(asked: str, held: str) -> bool:
    """Whether the question's word `asked` is the sheet's word `held` spelled another way."""
    if asked == held:
        return True
    short, long = sorted((asked, held), key=len)
    if len(short) >= 4 and long.startswith(short) and long[len(short) :] in _ENDINGS:
        return True
    stem = next((i for i, (a, b) in enumerate(zip(asked, held, strict=False)) if a != b), min(len(asked), len(held)))
    if stem >= _STEM and asked[stem:] in _FORMS and held[stem:] in _FORMS:
        return True  # two forms of one stem: "production" and "produced", "operating" and "operations"
    if short.endswith("y") and long == short[:-1] + "ies":
        return True
    if len(asked) == len(held) >= _TYPO_LENGTH and _transposed(asked, held):
        return True  # two letters typed the wrong way round: "recieve", "wieght"
    if len(short) >= _TYPO_LENGTH and asked[0] == held[0]:
        return SequenceMatcher(None, asked, held).ratio() >= _TYPO_RATIO
    return False


def read_through_typos(words: list[str], vocabulary: Iterable[str]) -> list[str]:
    """The question's words with each long one misspelled from a word of `vocabulary` written as that word ("avrage"
    → average, "hieghest" → highest); the others as they are."""
    known = [w for w in vocabulary if len(w) >= _TYPO_LENGTH]
    return [w if len(w) < _TYPO_LENGTH or w in known else next((k for k in known if spelled_like(w, k)), w)
            for w in words]  # fmt: skip


def _transposed(a: str, b: str) -> bool:
    """Whether two words of one length differ only by two neighbouring letters swapped."""
    apart = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(apart) == 2 and apart[1] == apart[0] + 1 and a[apart[0]] == b[apart[1]] and a[apart[1]] == b[apart[0]]


def abbreviates(asked: str, held: str) -> bool:
    """Whether `asked` is a written abbreviation of the sheet's word `held`, shorter by at least two: the word's
    start, then only consonants of the word in order ("inv" of invoice, "amt" of amount, "qty" of quantity, "hrs"
    of hours, "dept" of department; not "date" of dispatcher: a vowel after the start is no abbreviation)."""
    if len(asked) < 3 or len(held) < len(asked) + 2 or not asked.isalpha():
        return False
    start = next((i for i, (a, h) in enumerate(zip(asked, held, strict=False)) if a != h), len(asked))
    if start == 0 or any(ch in "aeiou" for ch in asked[start:]):
        return False
    rest = iter(held[start:])
    return all(ch in rest for ch in asked[start:])


def initials(label: str) -> str:
    """The abbreviation a label's words make ("Available seat miles" → "asm"), or "" for a one-word label."""
    words = [w for w in word_list(re.sub(r"\([^)]*\)", " ", label)) if w not in STOP and not w.isdigit()]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""


def capitalised(question: str) -> set[str]:
    """The short capitalised names of the question ("IT", "HR"), lower-cased as the sheet's words are."""
    return {m.lower() for m in _CAPS.findall(question)}


@dataclass(frozen=True)
class Respelled:
    """The question's words in the sheet's spelling, and what was read so (shown in the answer's reasoning)."""

    words: set[str]
    read: dict[str, str]  # the question's word → the sheet's word(s) it was read as


def respell(asked: set[str], held: set[str], labels: Iterable[str]) -> Respelled:
    """`asked` with each word the sheet does not hold replaced by the one word of `held` it is spelled like, or by the
    words of the one label whose initials it is."""
    abbreviations: dict[str, set[str]] = {}
    for label in labels:
        short = initials(label)
        if len(short) >= 2:
            abbreviations.setdefault(short, set()).add(label)
    words: set[str] = set()
    read: dict[str, str] = {}
    for word in asked:
        if word in held:
            words.add(word)
            continue
        spelled = {h for h in held if spelled_like(word, h)}
        named = abbreviations.get(word, set())
        if len(spelled) == 1 and not named:
            words |= spelled
            read[word] = next(iter(spelled))
        elif named and not spelled and len({frozenset(_label_words(n)) for n in named}) == 1:
            expanded = _label_words(next(iter(named)))
            words |= expanded
            read[word] = " ".join(sorted(expanded))
        else:
            words.add(word)
    return Respelled(words, read)


def _label_words(label: str) -> set[str]:
    return {w for w in word_list(re.sub(r"\([^)]*\)", " ", label)) if w not in STOP}
