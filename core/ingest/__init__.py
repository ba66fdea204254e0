"""Files in: parsing PDFs and sheets, storing them in one transaction, embedding, cell edits."""
