#!/bin/sh
# Stands for the site's LDAP ENC (modules/ocf_puppet/files/ldap-enc) as the
# site's CI overrides it (environment=production, dummy_secrets=true): the
# node's puppetClient attributes as parameters, no classes.
cat <<YAML
environment: production
parameters:
  cn: night
  type: staffvm
  ipHostNumber: 169.229.226.203
  environment: production
  dummy_secrets: true
YAML
