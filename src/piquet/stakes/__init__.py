"""The settlement of stakes and the scoring cards (p. 97-102), and chouette for three (p. 106)."""

from piquet.stakes.chouette import ChouetteMatch
from piquet.stakes.settlement import Custom, Stake, StakesSettlement, custom_named, settle_stakes

__all__ = ["ChouetteMatch", "Custom", "Stake", "StakesSettlement", "custom_named", "settle_stakes"]
