"""Questions to answers: planners, synthesizers, the name check, the QA service, conversations and feedback."""
