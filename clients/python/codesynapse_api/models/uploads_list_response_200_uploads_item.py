from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.uploads_list_response_200_uploads_item_format import (
    UploadsListResponse200UploadsItemFormat,
    check_uploads_list_response_200_uploads_item_format,
)

T = TypeVar("T", bound="UploadsListResponse200UploadsItem")


@_attrs_define
class UploadsListResponse200UploadsItem:
    """
    Attributes:
        upload_id (str):
        format_ (UploadsListResponse200UploadsItemFormat):
        size (int):
        sha256 (str):
        expires_at (str):
    """

    upload_id: str
    format_: UploadsListResponse200UploadsItemFormat
    size: int
    sha256: str
    expires_at: str

    def to_dict(self) -> dict[str, Any]:
        upload_id = self.upload_id

        format_: str = self.format_

        size = self.size

        sha256 = self.sha256

        expires_at = self.expires_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "upload_id": upload_id,
                "format": format_,
                "size": size,
                "sha256": sha256,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        upload_id = d.pop("upload_id")

        format_ = check_uploads_list_response_200_uploads_item_format(d.pop("format"))

        size = d.pop("size")

        sha256 = d.pop("sha256")

        expires_at = d.pop("expires_at")

        uploads_list_response_200_uploads_item = cls(
            upload_id=upload_id,
            format_=format_,
            size=size,
            sha256=sha256,
            expires_at=expires_at,
        )

        return uploads_list_response_200_uploads_item
