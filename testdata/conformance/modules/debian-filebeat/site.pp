include filebeat
