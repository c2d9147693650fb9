from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.admin_add_member_response_200_role import (
    AdminAddMemberResponse200Role,
    check_admin_add_member_response_200_role,
)

T = TypeVar("T", bound="AdminAddMemberResponse200")


@_attrs_define
class AdminAddMemberResponse200:
    """
    Attributes:
        org_id (str):
        user_id (str):
        role (AdminAddMemberResponse200Role):
    """

    org_id: str
    user_id: str
    role: AdminAddMemberResponse200Role

    def to_dict(self) -> dict[str, Any]:
        org_id = self.org_id

        user_id = self.user_id

        role: str = self.role

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org_id": org_id,
                "user_id": user_id,
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org_id = d.pop("org_id")

        user_id = d.pop("user_id")

        role = check_admin_add_member_response_200_role(d.pop("role"))

        admin_add_member_response_200 = cls(
            org_id=org_id,
            user_id=user_id,
            role=role,
        )

        return admin_add_member_response_200
