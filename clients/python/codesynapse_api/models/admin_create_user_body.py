from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="AdminCreateUserBody")


@_attrs_define
class AdminCreateUserBody:
    """
    Attributes:
        email (str): The user's email (how they sign in).
        password (str | Unset): 8 to 1024 characters (absent: the user signs in with an API key only).
        platform_admin (bool | Unset): A platform admin: may sign in to the console and call the operators' API.
    """

    email: str
    password: str | Unset = UNSET
    platform_admin: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        password = self.password

        platform_admin = self.platform_admin

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
            }
        )
        if password is not UNSET:
            field_dict["password"] = password
        if platform_admin is not UNSET:
            field_dict["platform_admin"] = platform_admin

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        password = d.pop("password", UNSET)

        platform_admin = d.pop("platform_admin", UNSET)

        admin_create_user_body = cls(
            email=email,
            password=password,
            platform_admin=platform_admin,
        )

        return admin_create_user_body
