from typing import Literal

JobsGetResponse200RecallType0 = Literal["complete", "partial"]

JOBS_GET_RESPONSE_200_RECALL_TYPE_0_VALUES: set[JobsGetResponse200RecallType0] = {
    "complete",
    "partial",
}


def check_jobs_get_response_200_recall_type_0(
    value: str,
) -> JobsGetResponse200RecallType0:
    if value in JOBS_GET_RESPONSE_200_RECALL_TYPE_0_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_GET_RESPONSE_200_RECALL_TYPE_0_VALUES!r}"
    )
