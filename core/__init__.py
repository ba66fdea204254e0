"""Analyst Workbench: data rooms of spreadsheets and PDFs, questions answered with cell and passage citations."""

import sys

# PyMuPDF 2 loads its optional layout analyser (pymupdf.layout: three ONNX models, about 1.2 s) inside
# `import pymupdf` whenever the pymupdf-layout wheel is installed, and pymupdf 2.0 requires that wheel. Nothing
# here uses it (page.get_layout, pymupdf4llm; core/ingest/pdf_tables.py finds tables itself), and every
# process that reads a PDF paid for it on start. A None entry in sys.modules is Python's way to mark a module
# absent: PyMuPDF's `try: import pymupdf.layout except ImportError` then skips it.
sys.modules.setdefault("pymupdf.layout", None)  # type: ignore[arg-type]
