#!/bin/sh
echo "classes: [common]"
exit 1
