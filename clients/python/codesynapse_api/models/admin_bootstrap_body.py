from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="AdminBootstrapBody")


@_attrs_define
class AdminBootstrapBody:
    """
    Attributes:
        org (str): The organisation's name (1-200 characters).
        email (str): The user's email (how they sign in).
        repo (str): The repository's name: 1-100 letters, digits, '.', '_' or '-'.
        password (str | Unset): 8 to 1024 characters (absent: the user signs in with an API key only).
    """

    org: str
    email: str
    repo: str
    password: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        org = self.org

        email = self.email

        repo = self.repo

        password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org": org,
                "email": email,
                "repo": repo,
            }
        )
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org = d.pop("org")

        email = d.pop("email")

        repo = d.pop("repo")

        password = d.pop("password", UNSET)

        admin_bootstrap_body = cls(
            org=org,
            email=email,
            repo=repo,
            password=password,
        )

        return admin_bootstrap_body
