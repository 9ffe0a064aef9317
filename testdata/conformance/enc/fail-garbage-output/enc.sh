#!/bin/sh
echo "classes: [common"
echo "}}} not yaml {{{"
