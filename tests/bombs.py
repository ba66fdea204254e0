"""Hostile files generated in the tests: a PDF page that inflates to tens of MB of text, a workbook whose cells
all point at one long shared string (each a few hundred KB on disk)."""

from __future__ import annotations

import io
import zipfile
import zlib


def pdf_bomb(text_mb: int) -> bytes:
    """A one-page PDF whose compressed content stream shows `text_mb` MB of text."""
    line = b"(" + b"A" * 100 + b") Tj T*\n"
    body = b"BT /F1 1 Tf 1 TL 10 800 Td\n" + line * (text_mb * 1_000_000 // len(line)) + b"ET\n"
    stream = zlib.compress(body, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body_ in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body_ + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
_DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def xlsx_bomb(cells: int, string_chars: int) -> bytes:
    """A workbook whose one sheet has `cells` cells, all pointing at one shared string of `string_chars` characters."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="xml" ContentType="application/xml"/></Types>',
        )
        zf.writestr(
            "_rels/.rels",
            f'<?xml version="1.0"?><Relationships xmlns="{_RELS}"><Relationship Id="rId1" '
            f'Type="{_DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        )
        zf.writestr(
            "xl/workbook.xml",
            f'<?xml version="1.0"?><workbook xmlns="{_MAIN}" xmlns:r="{_DOC}"><sheets>'
            '<sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        zf.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<?xml version="1.0"?><Relationships xmlns="{_RELS}">'
            f'<Relationship Id="rId1" Type="{_DOC}/worksheet" Target="worksheets/sheet1.xml"/>'
            f'<Relationship Id="rId2" Type="{_DOC}/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
        )
        zf.writestr(
            "xl/sharedStrings.xml",
            f'<?xml version="1.0"?><sst xmlns="{_MAIN}"><si><t>Name</t></si><si><t>{"x" * string_chars}</t></si></sst>',
        )
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            sheet.write(f'<?xml version="1.0"?><worksheet xmlns="{_MAIN}"><sheetData>'.encode())
            sheet.write(b'<row r="1"><c r="A1" t="s"><v>0</v></c></row>')
            row = b"<row>" + b'<c t="s"><v>1</v></c>' * 10 + b"</row>"
            for _ in range(cells // 10):
                sheet.write(row)
            sheet.write(b"</sheetData></worksheet>")
    return buffer.getvalue()
