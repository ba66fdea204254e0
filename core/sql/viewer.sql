-- Named queries of the PDF page viewer (core/retrieval/viewer.py).

-- name: viewer_document
SELECT d.id, d.room_id, r.name AS room_name, d.kind, d.title, d.status, d.error, d.page_count, d.checksum,
       f.document_id IS NOT NULL AS has_file
FROM documents d
JOIN rooms r ON r.id = d.room_id
LEFT JOIN document_files f ON f.document_id = d.id
WHERE d.id = %(document_id)s

-- name: viewer_document_bytes
SELECT data FROM document_files WHERE document_id = %(document_id)s

-- name: viewer_chunk
SELECT page_number, chunk_index, start_char, end_char, content, boxes
FROM chunks
WHERE document_id = %(document_id)s AND chunk_index = %(chunk_index)s AND page_number IS NOT NULL

-- A cell of a table read from a PDF: its page, its row's cell boxes and the column's position among them.
-- name: viewer_cell_boxes
SELECT s.page_number, r.boxes, c.position, r.values
FROM sheet_rows r
JOIN sheets s ON s.id = r.sheet_id
LEFT JOIN sheet_columns c ON c.sheet_id = s.id AND c.name = %(column)s
WHERE r.id = %(row_id)s AND s.document_id = %(document_id)s AND s.page_number IS NOT NULL
