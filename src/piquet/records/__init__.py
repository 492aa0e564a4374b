"""The piquet record format (``piquet-record/1``): read, write and replay."""
