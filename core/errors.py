"""The workbench's error tree: user-facing errors carry the fix in their message.

Every error the workbench raises on purpose is a WorkbenchError, and its message is safe to show as it is:
the pages show it with st.error, the CLI prints it and exits 1.  Anything else is a bug and propagates.

    WorkbenchError
    ├── IngestError                 a file could not be ingested (recorded on its document as status=failed)
    │   ├── UnsupportedFile         not a PDF, CSV or XLSX
    │   ├── EmptyFile               0 bytes
    │   ├── FileTooLarge            over WORKBENCH_MAX_FILE_MB
    │   ├── CorruptPdf              PyMuPDF cannot open or read it
    │   ├── EncryptedPdf            needs a password
    │   ├── NoTextLayer             a scan without OCR
    │   ├── TooManyPages            over WORKBENCH_MAX_PDF_PAGES
    │   ├── TooMuchContent          more text or cells than the per-page/per-file caps allow
    │   ├── ParserLimit             parsing needed more memory or time than its child process is allowed
    │   └── MalformedSheet          a CSV/XLSX that cannot be parsed into a table
    ├── EditError                   a cell edit was refused
    │   ├── InvalidValue            the text does not fit the column's type
    │   ├── CellNotFound            the row or column is gone
    │   └── ReadOnlyTable           a table read from a PDF (the PDF is the source)
    ├── TableError                  an exact table operation cannot be computed as asked
    │   ├── UnknownColumn           no such column (the message lists them)
    │   └── SheetNotFound           no such sheet
    ├── NotAPdf                     the viewer was asked for a page of a sheet or a failed file
    ├── PageOutOfRange              no such page
    ├── ConversationNotFound        the conversation is not in this room
    ├── ConversationNotInRoom       (feedback) the conversation is missing or in another room
    ├── FeedbackError               a vote or comment could not be recorded
    ├── AuthError                   signing in or creating an account failed
    ├── AccessDenied                the user's role in the room does not allow it
    ├── RateLimited                 over the questions-per-hour limit (says when to ask again)
    ├── BadRange                    an empty or reversed date range (analytics)
    ├── BadInput                    typed text or a number that cannot be used (NUL byte, blank, too long)
    ├── RoomNotFound                no room of that name
    ├── DocumentNotFound            no document (or stored file) of that id
    ├── EmbeddingMismatch           the room was embedded with another model
    ├── ConfigError                 a setting is missing or inconsistent
    └── ModelError                  the model server failed (unreachable, timed out, refused, broke off)

One exception is internal and never reaches a user: core.qa.llm_planner.InvalidPlan, a model's plan that does
not fit the room (sent back to the model once, then the offline planner plans instead).
"""

from __future__ import annotations

from datetime import datetime


class WorkbenchError(Exception):
    """Base of every error the workbench raises on purpose; its message is safe to show a user."""


class IngestError(WorkbenchError):
    """A file could not be ingested; the message says why and what to do."""


class UnsupportedFile(IngestError):
    """The file's type is not one the workbench reads."""


class EmptyFile(IngestError):
    """The file has no bytes."""


class FileTooLarge(IngestError):
    """The file is over the configured size limit."""


class CorruptPdf(IngestError):
    """PyMuPDF could not open or read the PDF."""


class EncryptedPdf(IngestError):
    """The PDF needs a password to open."""


class NoTextLayer(IngestError):
    """The PDF has pages but no extractable text (a scan without OCR)."""


class TooManyPages(IngestError):
    """The PDF has more pages than the configured limit."""


class TooMuchContent(IngestError):
    """The file holds more text or cells than WORKBENCH_MAX_PAGE_CHARS / _FILE_CHARS / _CELLS allow."""


class ParserLimit(IngestError):
    """Parsing the file hit the child process's memory or time limit (a hostile or pathological file)."""


class MalformedSheet(IngestError):
    """A CSV or XLSX file could not be parsed into a table."""


class ConfigError(WorkbenchError):
    """A setting is missing or inconsistent."""


class EmbeddingMismatch(WorkbenchError):
    """A room was indexed with a different embedding model than the one configured."""


class BadInput(WorkbenchError):
    """A question, query, name or id that cannot be used as typed; the message says what to change."""


class RoomNotFound(WorkbenchError):
    """No data room has the given name."""


class DocumentNotFound(WorkbenchError):
    """No document (or no stored file) has the given id."""


class AccessDenied(WorkbenchError):
    """The current user's role in the room does not allow this."""


# -- Ingestion and cell edits ----------------------------------------------------------------------


class EditError(WorkbenchError):
    """A cell edit was refused; the message says why and what would be accepted."""


class InvalidValue(EditError):
    """The new text does not fit the column's type (an amount, a percentage, a date...)."""


class CellNotFound(EditError):
    """The row or column to edit is not in the sheet (deleted, or a stale page)."""


class ReadOnlyTable(EditError):
    """The cell belongs to a table read from a PDF: the PDF is the source, so it is not edited here."""


# -- Exact table operations (core.retrieval.tables) ------------------------------------------------


class TableError(WorkbenchError):
    """A table operation cannot be computed as asked; the message says why and what would work."""


class UnknownColumn(TableError):
    """A column named in a table operation is not in the sheet; the message lists the columns."""


class SheetNotFound(TableError):
    """No stored sheet has the requested id (its document may have been deleted)."""


# -- The PDF viewer --------------------------------------------------------------------------------


class NotAPdf(WorkbenchError):
    """The document is a spreadsheet, or a file that failed to ingest: there is no page to show."""


class PageOutOfRange(WorkbenchError):
    """The requested page number is not in the document."""


# -- Questions, conversations and feedback ---------------------------------------------------------


class ConversationNotFound(WorkbenchError):
    """The conversation id does not exist in this room."""


class FeedbackError(WorkbenchError):
    """Feedback could not be recorded (unknown query, comment too long); the message says why."""


class ConversationNotInRoom(WorkbenchError):
    """The conversation does not exist, or belongs to another room."""


# -- Rooms, people and limits ----------------------------------------------------------------------


class AuthError(WorkbenchError):
    """Signing in or creating an account failed; the message says what to do."""


class RateLimited(WorkbenchError):
    """The user has asked the room's limit of questions within the last hour."""

    def __init__(self, message: str, *, retry_at: datetime, asked: int, limit: int) -> None:
        super().__init__(message)
        self.retry_at = retry_at
        self.asked = asked
        self.limit = limit


class BadRange(WorkbenchError):
    """The date range is empty or reversed."""


# -- Providers -------------------------------------------------------------------------------------


class ModelError(WorkbenchError):
    """The model server failed (unreachable, timed out, refused the key, answered an error, broke off)."""

    def __init__(self, message: str, *, partial: str = "") -> None:
        super().__init__(message)
        self.partial = partial  # what the model had streamed before it failed (kept in the query log)
