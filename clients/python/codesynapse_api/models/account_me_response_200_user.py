from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AccountMeResponse200User")


@_attrs_define
class AccountMeResponse200User:
    """
    Attributes:
        id (str):
        email (str):
        is_platform_admin (bool):
    """

    id: str
    email: str
    is_platform_admin: bool

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        email = self.email

        is_platform_admin = self.is_platform_admin

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "email": email,
                "is_platform_admin": is_platform_admin,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        email = d.pop("email")

        is_platform_admin = d.pop("is_platform_admin")

        account_me_response_200_user = cls(
            id=id,
            email=email,
            is_platform_admin=is_platform_admin,
        )

        return account_me_response_200_user
