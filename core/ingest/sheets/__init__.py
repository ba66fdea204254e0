"""Parse CSV and XLSX files into plain tables whose every cell can be cited back to the original file.

Pure parsing: no database and no Streamlit.  Each table keeps, for every column, its A1 letter in the
original file and, for every data row, its row number in the original file, so that ``cell_ref``
can name the exact cell a value came from ("Funding!E12").  Cell text is kept as it is stored;
``typed_value`` turns it into a number or date for exact table math, guided by the inferred
column ``Dtype``.
"""

from core.ingest.sheets.csv import parse_csv
from core.ingest.sheets.xlsx import parse_xlsx

__all__ = ["parse_csv", "parse_xlsx"]
