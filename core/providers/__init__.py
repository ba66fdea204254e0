"""Outside services behind one interface each: the chat model client and the embedding models."""
