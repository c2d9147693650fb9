from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.uploads_list_response_200_uploads_item import (
        UploadsListResponse200UploadsItem,
    )


T = TypeVar("T", bound="UploadsListResponse200")


@_attrs_define
class UploadsListResponse200:
    """
    Attributes:
        uploads (list[UploadsListResponse200UploadsItem]):
    """

    uploads: list[UploadsListResponse200UploadsItem]

    def to_dict(self) -> dict[str, Any]:
        uploads = []
        for uploads_item_data in self.uploads:
            uploads_item = uploads_item_data.to_dict()
            uploads.append(uploads_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "uploads": uploads,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.uploads_list_response_200_uploads_item import (
            UploadsListResponse200UploadsItem,
        )

        d = dict(src_dict)
        uploads = []
        _uploads = d.pop("uploads")
        for uploads_item_data in _uploads:
            uploads_item = UploadsListResponse200UploadsItem.from_dict(
                uploads_item_data
            )

            uploads.append(uploads_item)

        uploads_list_response_200 = cls(
            uploads=uploads,
        )

        return uploads_list_response_200
