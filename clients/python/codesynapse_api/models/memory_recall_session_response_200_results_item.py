from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.memory_recall_session_response_200_results_item_object import (
        MemoryRecallSessionResponse200ResultsItemObject,
    )
    from ..models.memory_recall_session_response_200_results_item_subject import (
        MemoryRecallSessionResponse200ResultsItemSubject,
    )


T = TypeVar("T", bound="MemoryRecallSessionResponse200ResultsItem")


@_attrs_define
class MemoryRecallSessionResponse200ResultsItem:
    """
    Attributes:
        fact_id (str):
        subject (MemoryRecallSessionResponse200ResultsItemSubject):
        predicate (str):
        object_ (MemoryRecallSessionResponse200ResultsItemObject):
        score (float):
        source (str | Unset): Where the fact came from, as it was stored (redacted), when it was given.
        origin_session_id (None | str | Unset): Repository memory only: the session that wrote the fact (null for
            records older than the field).
    """

    fact_id: str
    subject: MemoryRecallSessionResponse200ResultsItemSubject
    predicate: str
    object_: MemoryRecallSessionResponse200ResultsItemObject
    score: float
    source: str | Unset = UNSET
    origin_session_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        fact_id = self.fact_id

        subject = self.subject.to_dict()

        predicate = self.predicate

        object_ = self.object_.to_dict()

        score = self.score

        source = self.source

        origin_session_id: None | str | Unset
        if isinstance(self.origin_session_id, Unset):
            origin_session_id = UNSET
        else:
            origin_session_id = self.origin_session_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fact_id": fact_id,
                "subject": subject,
                "predicate": predicate,
                "object": object_,
                "score": score,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source
        if origin_session_id is not UNSET:
            field_dict["origin_session_id"] = origin_session_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.memory_recall_session_response_200_results_item_object import (
            MemoryRecallSessionResponse200ResultsItemObject,
        )
        from ..models.memory_recall_session_response_200_results_item_subject import (
            MemoryRecallSessionResponse200ResultsItemSubject,
        )

        d = dict(src_dict)
        fact_id = d.pop("fact_id")

        subject = MemoryRecallSessionResponse200ResultsItemSubject.from_dict(
            d.pop("subject")
        )

        predicate = d.pop("predicate")

        object_ = MemoryRecallSessionResponse200ResultsItemObject.from_dict(
            d.pop("object")
        )

        score = d.pop("score")

        source = d.pop("source", UNSET)

        def _parse_origin_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        origin_session_id = _parse_origin_session_id(d.pop("origin_session_id", UNSET))

        memory_recall_session_response_200_results_item = cls(
            fact_id=fact_id,
            subject=subject,
            predicate=predicate,
            object_=object_,
            score=score,
            source=source,
            origin_session_id=origin_session_id,
        )

        return memory_recall_session_response_200_results_item
