"""A runtime's whole life through the Python client, against a live server
(test/integration/python-client.test.ts runs it): register a session, upsert
and recall session memory, submit an AI task and wait for it, revoke, and see
the next call refused. Prints one JSON object per step on stdout.

Environment: CODESYNAPSE_URL, CODESYNAPSE_API_KEY, CODESYNAPSE_SESSION_ID, REPO.
"""

import json
import os

from codesynapse_api.api.jobs import jobs_submit_ai_task
from codesynapse_api.api.memory import memory_recall_session
from codesynapse_api.api.session_memory import session_memory_upsert
from codesynapse_api.models import (
    JobsSubmitAiTaskBody,
    MemoryRecallSessionBody,
    SessionMemoryUpsertBody,
    SessionMemoryUpsertBodyTriplesItem,
)
from codesynapse_client import CodeSynapseError, ThreadClient


def step(name: str, **data: object) -> None:
    print(json.dumps({"step": name, **data}), flush=True)


env = os.environ
repo = env["REPO"]
thread = ThreadClient(env["CODESYNAPSE_URL"], env["CODESYNAPSE_API_KEY"], env["CODESYNAPSE_SESSION_ID"])

registered = thread.register()
step("register", session_id=registered.session_id, tenant_id=registered.tenant_id, expires_at=registered.expires_at)
again = thread.register()
step("register_again", expires_at=again.expires_at)

me = thread.identity()
step("identity", session_id=me.session_id, parent_session_id=me.parent_session_id)

triple = SessionMemoryUpsertBodyTriplesItem(subject="AuthService", predicate="depends_on", object_="TokenStore", subject_type="class", object_type="class")
upserted = thread.call(session_memory_upsert, repo, body=SessionMemoryUpsertBody(triples=[triple], source="python client test"))
step("upsert", facts=len(upserted.facts), revision=upserted.revision)

recalled = thread.call(memory_recall_session, repo, body=MemoryRecallSessionBody(query="AuthService", limit=5))
top = recalled.results[0]
step("recall", count=len(recalled.results), subject=top.subject.name, predicate=top.predicate, object=top.object_.name, source=top.source)

submitted = thread.call(jobs_submit_ai_task, repo, body=JobsSubmitAiTaskBody(task="question", question="What does AuthService depend on?"))
job = thread.wait_for_job(submitted.job_id, timeout=120)
answer = job.result.to_dict().get("answer") if hasattr(job.result, "to_dict") else (job.result or {}).get("answer")
step("ai_task", job_id=submitted.job_id, status=job.status, has_answer=isinstance(answer, str) and len(answer) > 0)

try:
    thread.call(memory_recall_session, "no-such-repo", body=MemoryRecallSessionBody(query="x"))
    step("refused", code=None)
except CodeSynapseError as e:
    step("refused", code=e.code, status=e.status, shown=repr(e) + str(e) + repr(thread))

thread.revoke()
try:
    thread.identity()
    step("after_revoke", code=None)
except CodeSynapseError as e:
    step("after_revoke", code=e.code, status=e.status)
