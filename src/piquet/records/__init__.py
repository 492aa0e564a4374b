"""The piquet record format (``piquet-record/1``): read, write and replay."""

from piquet.records.record import (
    FORMAT,
    PartieRecord,
    RecordError,
    load_record,
    parse_record,
    record_of,
    replay,
)

__all__ = ["FORMAT", "PartieRecord", "RecordError", "load_record", "parse_record", "record_of", "replay"]
