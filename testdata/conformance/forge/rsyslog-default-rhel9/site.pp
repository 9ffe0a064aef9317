include rsyslog
include rsyslog::config
