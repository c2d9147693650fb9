from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminSuspendUserBody")


@_attrs_define
class AdminSuspendUserBody:
    """
    Attributes:
        user (str): The user's id (usr_…).
    """

    user: str

    def to_dict(self) -> dict[str, Any]:
        user = self.user

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user": user,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user = d.pop("user")

        admin_suspend_user_body = cls(
            user=user,
        )

        return admin_suspend_user_body
