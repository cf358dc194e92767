"""Pig's setup choices on the server (its plugin's ``setup_schema``; the server adds the seed)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class PigSetup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    target: int = Field(20, ge=10, le=50, description="the points to bank to win")
