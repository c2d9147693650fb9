from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobsSubmitIngestBody")


@_attrs_define
class JobsSubmitIngestBody:
    """
    Attributes:
        path (str | Unset): A directory under the server's allowed roots.
        git_url (str | Unset): A git URL on an allowed host (shallow clone).
        ref (str | Unset): With git_url: the branch or tag to clone.
        upload_id (str | Unset): An archive this session uploaded (POST /api/v1/repos/{repo}/uploads).
    """

    path: str | Unset = UNSET
    git_url: str | Unset = UNSET
    ref: str | Unset = UNSET
    upload_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        path = self.path

        git_url = self.git_url

        ref = self.ref

        upload_id = self.upload_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if path is not UNSET:
            field_dict["path"] = path
        if git_url is not UNSET:
            field_dict["git_url"] = git_url
        if ref is not UNSET:
            field_dict["ref"] = ref
        if upload_id is not UNSET:
            field_dict["upload_id"] = upload_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        path = d.pop("path", UNSET)

        git_url = d.pop("git_url", UNSET)

        ref = d.pop("ref", UNSET)

        upload_id = d.pop("upload_id", UNSET)

        jobs_submit_ingest_body = cls(
            path=path,
            git_url=git_url,
            ref=ref,
            upload_id=upload_id,
        )

        return jobs_submit_ingest_body
