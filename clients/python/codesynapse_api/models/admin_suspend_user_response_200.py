from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminSuspendUserResponse200")


@_attrs_define
class AdminSuspendUserResponse200:
    """
    Attributes:
        user_id (str):
        suspended (bool):
    """

    user_id: str
    suspended: bool

    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        suspended = self.suspended

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "suspended": suspended,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = d.pop("user_id")

        suspended = d.pop("suspended")

        admin_suspend_user_response_200 = cls(
            user_id=user_id,
            suspended=suspended,
        )

        return admin_suspend_user_response_200
