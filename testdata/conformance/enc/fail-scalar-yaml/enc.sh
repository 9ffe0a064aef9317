#!/bin/sh
echo "just a string"
