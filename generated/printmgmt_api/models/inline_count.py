from enum import StrEnum
from typing import Any


class InlineCount(StrEnum):
    ALLPAGES = "allpages"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)

    @classmethod
    def _missing_(cls, value: Any) -> "InlineCount | None":
        if not isinstance(value, str):
            return None
        folded = value.casefold()
        # some server builds spell statuses in lower case with a prefix: "job-waitprocessing"
        unprefixed = folded.partition("-")[2]
        for member in cls:
            if member.value.casefold() in (folded, unprefixed):
                # the known value as the server spelled it: equal to the member and hashed like it (its string is
                # the member's), while .value, and so to_dict(), keeps the wire spelling
                variant = str.__new__(cls, member.value)
                variant._name_ = member._name_
                variant._value_ = value
                return variant
        pseudo = str.__new__(cls, value)
        pseudo._name_ = f"UNKNOWN_{value}"
        pseudo._value_ = value
        return pseudo

    @property
    def is_known(self) -> bool:
        """False for a value the server sent that this SDK version does not know."""
        return self._name_ in type(self).__members__
