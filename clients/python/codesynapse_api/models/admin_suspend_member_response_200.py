from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminSuspendMemberResponse200")


@_attrs_define
class AdminSuspendMemberResponse200:
    """
    Attributes:
        org_id (str):
        user_id (str):
        suspended (bool):
    """

    org_id: str
    user_id: str
    suspended: bool

    def to_dict(self) -> dict[str, Any]:
        org_id = self.org_id

        user_id = self.user_id

        suspended = self.suspended

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org_id": org_id,
                "user_id": user_id,
                "suspended": suspended,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org_id = d.pop("org_id")

        user_id = d.pop("user_id")

        suspended = d.pop("suspended")

        admin_suspend_member_response_200 = cls(
            org_id=org_id,
            user_id=user_id,
            suspended=suspended,
        )

        return admin_suspend_member_response_200
