"""The web table (issue 5): ``piquet serve``, a Starlette app over websockets, its tables stored by SQLAlchemy.

``protocol`` turns actions and observations into the JSON of the shared spec, ``table`` is a
partie at a table with its seats, ``store`` keeps the tables, ``app`` serves them and
``serve`` runs the server.  The core (``piquet.core.deal``, ``piquet.core.partie`` ...) never imports this
package.
"""
