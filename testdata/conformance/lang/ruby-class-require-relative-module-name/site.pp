$top = "T"
include m
