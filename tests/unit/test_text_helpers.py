"""Pure helpers of ingestion and search: file detection, row text, file-name words, query words."""

import pytest

from core.cells import Column
from core.errors import UnsupportedFile
from core.ingest.parse import detect as _detect
from core.ingest.pipeline import context_for, row_text
from core.retrieval.search import _name_words, query_words


def test_detect_by_magic_bytes_and_suffix() -> None:
    assert _detect(b"%PDF-1.7 ...", "report") == ("pdf", "application/pdf")
    assert _detect(b"PK\x03\x04", "Model.XLSX")[0] == "xlsx"
    assert _detect(b"a,b\n", "data.tsv")[0] == "csv"
    with pytest.raises(UnsupportedFile, match=r"save it as .xlsx"):
        _detect(b"\xd0\xcf\x11\xe0", "old.xls")
    with pytest.raises(UnsupportedFile, match="PDF, CSV and XLSX"):
        _detect(b"PK\x03\x04", "memo.docx")


def test_row_text_names_each_non_empty_cell() -> None:
    columns = [Column(0, "Company", "A", "text"), Column(1, "Country", "B", "text"), Column(2, "Raised", "C", "number")]
    assert row_text(columns, ["Acme", None, "12000000"]) == "Company: Acme; Raised: 12000000"


def test_file_names_become_words() -> None:
    assert context_for("filings/4K_2021_10K.pdf") == "4K 2021 10K"
    assert context_for("MARLOW_BRIGGS_2022_8K_dated-2022-05-17.pdf") == "MARLOW BRIGGS 2022 8K dated 2022 05 17"
    assert _name_words("TALLOWAY_2023Q3_10Q") == {"talloway", "2023q3", "2023", "10q"}


def test_query_words_keep_phrases_and_expose_years() -> None:
    assert query_words('Capex in FY2021 for "4K Company"?') == ['"4K Company"', "Capex", "in", "FY2021", "for", "2021"]
    assert query_words("revenue or margin and not cost") == ["revenue", "margin", "cost"]
    assert query_words("FY20180 and 12019") == ["FY20180", "12019"]


def test_years_read_in_every_spelling_reports_use() -> None:
    from core.text import year_mentions, years_in

    assert years_in("FY19 against FY '18, fiscal 17 and F16") == ["2019", "2018", "2017", "2016"]
    assert years_in("FY2022 and 2021-22, not 120219 or F-150") == ["2022", "2021"]
    assert years_in("December 31 2 0 1 8") == ["2018"]
    assert year_mentions("F19 53 WEEKS") == [("2019", "F19")]


def test_an_excerpt_is_centred_on_the_sentence_with_the_most_query_words() -> None:
    from core.text import excerpt

    before = " ".join(f"Line {i} says nothing of use here." for i in range(20))
    after = " ".join(f"Tail {i} says nothing either." for i in range(20))
    text = f"{before} The   Zorblax warehouse\nwas sold. {after}"
    shown = excerpt(text, ["zorblax", "warehouse"], width=200)
    assert "The Zorblax warehouse was sold." in shown and shown.startswith("…") and shown.endswith("…")
    assert len(shown) <= 202 and not shown[1:].startswith(" ")
    assert excerpt(text, ["absent"], width=50).startswith("Line 0 says")
    assert excerpt("Short.", ["short"]) == "Short."
