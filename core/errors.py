"""The workbench's error tree: user-facing errors carry the fix in their message."""

from __future__ import annotations


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


class MalformedSheet(IngestError):
    """A CSV or XLSX file could not be parsed into a table."""


class ConfigError(WorkbenchError):
    """A setting is missing or inconsistent."""


class EmbeddingMismatch(WorkbenchError):
    """A room was indexed with a different embedding model than the one configured."""


class RoomNotFound(WorkbenchError):
    """No data room has the given name."""


class DocumentNotFound(WorkbenchError):
    """No document (or no stored file) has the given id."""


class AccessDenied(WorkbenchError):
    """The current user's role in the room does not allow this."""
