"""From a plan to evidence: hybrid search, exact table operations, cell arithmetic, the PDF viewer."""
