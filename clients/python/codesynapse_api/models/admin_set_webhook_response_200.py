from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminSetWebhookResponse200")


@_attrs_define
class AdminSetWebhookResponse200:
    """
    Attributes:
        org_id (str):
        url (str):
        secret (str):
    """

    org_id: str
    url: str
    secret: str

    def to_dict(self) -> dict[str, Any]:
        org_id = self.org_id

        url = self.url

        secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org_id": org_id,
                "url": url,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org_id = d.pop("org_id")

        url = d.pop("url")

        secret = d.pop("secret")

        admin_set_webhook_response_200 = cls(
            org_id=org_id,
            url=url,
            secret=secret,
        )

        return admin_set_webhook_response_200
