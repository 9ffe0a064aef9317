# Sample calls of assert_private; each result is a notify message.
include chrony::install
