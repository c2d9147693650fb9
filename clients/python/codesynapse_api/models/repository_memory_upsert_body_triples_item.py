from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="RepositoryMemoryUpsertBodyTriplesItem")


@_attrs_define
class RepositoryMemoryUpsertBodyTriplesItem:
    """
    Attributes:
        subject (str):
        predicate (str):
        object_ (str):
        subject_type (str | Unset):
        object_type (str | Unset):
    """

    subject: str
    predicate: str
    object_: str
    subject_type: str | Unset = UNSET
    object_type: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        subject = self.subject

        predicate = self.predicate

        object_ = self.object_

        subject_type = self.subject_type

        object_type = self.object_type

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subject": subject,
                "predicate": predicate,
                "object": object_,
            }
        )
        if subject_type is not UNSET:
            field_dict["subject_type"] = subject_type
        if object_type is not UNSET:
            field_dict["object_type"] = object_type

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        subject = d.pop("subject")

        predicate = d.pop("predicate")

        object_ = d.pop("object")

        subject_type = d.pop("subject_type", UNSET)

        object_type = d.pop("object_type", UNSET)

        repository_memory_upsert_body_triples_item = cls(
            subject=subject,
            predicate=predicate,
            object_=object_,
            subject_type=subject_type,
            object_type=object_type,
        )

        return repository_memory_upsert_body_triples_item
