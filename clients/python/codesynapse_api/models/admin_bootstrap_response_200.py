from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="AdminBootstrapResponse200")


@_attrs_define
class AdminBootstrapResponse200:
    """
    Attributes:
        org_id (str):
        user_id (str):
        repo_id (str):
        repo_name (str):
        email (str):
        api_key (str):
        key_prefix (str):
        password (str | Unset): The generated password, when none was given.
    """

    org_id: str
    user_id: str
    repo_id: str
    repo_name: str
    email: str
    api_key: str
    key_prefix: str
    password: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        org_id = self.org_id

        user_id = self.user_id

        repo_id = self.repo_id

        repo_name = self.repo_name

        email = self.email

        api_key = self.api_key

        key_prefix = self.key_prefix

        password = self.password

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org_id": org_id,
                "user_id": user_id,
                "repo_id": repo_id,
                "repo_name": repo_name,
                "email": email,
                "api_key": api_key,
                "key_prefix": key_prefix,
            }
        )
        if password is not UNSET:
            field_dict["password"] = password

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org_id = d.pop("org_id")

        user_id = d.pop("user_id")

        repo_id = d.pop("repo_id")

        repo_name = d.pop("repo_name")

        email = d.pop("email")

        api_key = d.pop("api_key")

        key_prefix = d.pop("key_prefix")

        password = d.pop("password", UNSET)

        admin_bootstrap_response_200 = cls(
            org_id=org_id,
            user_id=user_id,
            repo_id=repo_id,
            repo_name=repo_name,
            email=email,
            api_key=api_key,
            key_prefix=key_prefix,
            password=password,
        )

        return admin_bootstrap_response_200
