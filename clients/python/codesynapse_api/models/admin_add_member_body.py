from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.admin_add_member_body_role import (
    AdminAddMemberBodyRole,
    check_admin_add_member_body_role,
)

T = TypeVar("T", bound="AdminAddMemberBody")


@_attrs_define
class AdminAddMemberBody:
    """
    Attributes:
        org (str): The organisation's id (org_…).
        user (str): The user's id (usr_…).
        role (AdminAddMemberBodyRole): owner, admin or member.
    """

    org: str
    user: str
    role: AdminAddMemberBodyRole

    def to_dict(self) -> dict[str, Any]:
        org = self.org

        user = self.user

        role: str = self.role

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org": org,
                "user": user,
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org = d.pop("org")

        user = d.pop("user")

        role = check_admin_add_member_body_role(d.pop("role"))

        admin_add_member_body = cls(
            org=org,
            user=user,
            role=role,
        )

        return admin_add_member_body
