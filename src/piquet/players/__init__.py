"""Computer players: they read an observation, never a deal, and answer with an action.

``base`` (the ``Player`` protocol, random and simple), ``cavendish`` (the
treatise's principles), ``worlds`` (deals consistent with what a player knows),
``solver`` (the exact double-dummy solver, with its C core), ``search``, the
``levels`` by name and number, and ``runner`` (a partie between two players).
"""
