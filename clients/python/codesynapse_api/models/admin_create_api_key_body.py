from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminCreateApiKeyBody")


@_attrs_define
class AdminCreateApiKeyBody:
    """
    Attributes:
        org (str): The organisation's id (org_…).
        user (str): The user's id (usr_…).
    """

    org: str
    user: str

    def to_dict(self) -> dict[str, Any]:
        org = self.org

        user = self.user

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org": org,
                "user": user,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org = d.pop("org")

        user = d.pop("user")

        admin_create_api_key_body = cls(
            org=org,
            user=user,
        )

        return admin_create_api_key_body
