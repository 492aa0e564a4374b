"""The odds of piquet, exact (p. 116-125, p. 155, Law 18): drawing, the deal, the exchange, what is against you.

Pure arithmetic over the core; the players read it (the treatise's discarding
rules), so it stands below them.  The simulated exchange of a computer level is
in ``piquet.study.exchange``.
"""

from piquet.odds.chances import *  # noqa: F403
from piquet.odds.chances import __all__ as __all__
