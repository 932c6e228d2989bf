# tests are added below
