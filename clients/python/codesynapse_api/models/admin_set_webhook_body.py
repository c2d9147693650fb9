from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="AdminSetWebhookBody")


@_attrs_define
class AdminSetWebhookBody:
    """
    Attributes:
        org (str): The organisation's id (org_…).
        url (str): An absolute http(s) URL without credentials.
        secret (str | Unset): 24 to 256 printable ASCII characters (absent: generated).
    """

    org: str
    url: str
    secret: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        org = self.org

        url = self.url

        secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org": org,
                "url": url,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org = d.pop("org")

        url = d.pop("url")

        secret = d.pop("secret", UNSET)

        admin_set_webhook_body = cls(
            org=org,
            url=url,
            secret=secret,
        )

        return admin_set_webhook_body
