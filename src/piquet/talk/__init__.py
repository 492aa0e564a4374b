"""The table's words: calls, replies, scores, tricks and the partie, made once for every interface."""
