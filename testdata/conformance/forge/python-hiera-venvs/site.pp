include python
