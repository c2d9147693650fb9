from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminSuspendOrgBody")


@_attrs_define
class AdminSuspendOrgBody:
    """
    Attributes:
        org (str): The organisation's id (org_…).
    """

    org: str

    def to_dict(self) -> dict[str, Any]:
        org = self.org

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org": org,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org = d.pop("org")

        admin_suspend_org_body = cls(
            org=org,
        )

        return admin_suspend_org_body
